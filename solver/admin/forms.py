"""Forms of the dictionary admin: the dictionary with its upload, and the change-page tools."""

from __future__ import annotations

from typing import Any

from django import forms

from solver.dictionaries.uploads import UploadError, upload_read, upload_report
from solver.engine.board import Board, BoardError
from solver.engine.rules import ADJACENCIES, SCORINGS, Rules
from solver.engine.wordlist import MAX_ALPHABET, WordList, normalise_word
from solver.models import Dictionary

ALPHABET_NEEDS_UPLOAD = "Upload the word list again to change the alphabet."
ALPHABET_NOT_LETTERS = "The alphabet is a run of letters, e.g. ABCDEFGHIJKLMNOPQRSTUVWXYZ."
FILE_REQUIRED = "Upload the word list (.txt or .txt.gz) of the new dictionary."


class DictionaryForm(forms.ModelForm):
    """A dictionary's details and, when a file is given, a new word list checked in full."""

    word_file = forms.FileField(
        required=False,
        label="Word list",
        help_text=(
            "A .txt or .txt.gz file in UTF-8: words separated by spaces or new lines, any "
            "case. Uploading replaces the list; nothing changes unless the whole file is valid."
        ),
        widget=forms.ClearableFileInput(attrs={"accept": ".txt,.gz,text/plain,application/gzip"}),
    )

    class Meta:
        model = Dictionary
        fields = ["name", "slug", "language", "description", "source", "licence", "alphabet"]
        widgets = {
            "description": forms.Textarea(attrs={"rows": 3}),
            "source": forms.TextInput(attrs={"class": "solver-wide"}),
            "licence": forms.TextInput(attrs={"class": "solver-wide"}),
        }

    word_list: WordList | None = None
    report = ""

    def clean_alphabet(self) -> str:
        """Return the alphabet in upper case, each letter once, in code-point order."""
        alphabet = "".join(sorted(set(normalise_word(self.cleaned_data["alphabet"]))))
        if not alphabet.isalpha() or len(alphabet) > MAX_ALPHABET:
            raise forms.ValidationError(ALPHABET_NOT_LETTERS)
        return alphabet

    def clean(self) -> dict[str, Any]:
        """Read and check an uploaded word list; refuse the whole form if it is not usable."""
        cleaned: dict[str, Any] = super().clean() or {}
        upload = cleaned.get("word_file")
        alphabet = cleaned.get("alphabet")
        if not upload:
            if self.instance.pk is None:
                self.add_error("word_file", FILE_REQUIRED)
            elif alphabet and alphabet != self.instance.alphabet:
                self.add_error("alphabet", ALPHABET_NEEDS_UPLOAD)
            return cleaned
        if alphabet is None:
            return cleaned  # its own error is shown; the file is read once it is fixed
        try:
            self.word_list = upload_read(
                upload, name=upload.name, size=upload.size, alphabet=alphabet
            )
        except UploadError as exc:
            self.add_error("word_file", str(exc))
            return cleaned
        self.report = upload_report(self.word_list)
        return cleaned


class WordCheckForm(forms.Form):
    """The "is this word in the dictionary?" tool."""

    check = forms.CharField(label="Word or prefix", max_length=255, strip=True)


class BoardSolveForm(forms.Form):
    """The "solve this board" tool: a board in rows or as a share code, and the rules."""

    board = forms.CharField(
        label="Board",
        max_length=20000,
        help_text="Rows like ATEE/APYO/TINU/EDSE (Qu or [In] for multi-letter faces, _ for a "
        "blank), or a share code like 4x4-ATEEAPYOTINUEDSE.",
        widget=forms.TextInput(attrs={"size": 40}),
    )
    min_length = forms.IntegerField(label="Minimum length", min_value=1, max_value=255, initial=3)
    scoring = forms.ChoiceField(choices=[(s, s) for s in SCORINGS], initial="classic")
    adjacency = forms.ChoiceField(choices=[(a, a) for a in ADJACENCIES], initial="king")

    def clean_board(self) -> Board:
        """Return the board the text describes."""
        try:
            return Board.parse(self.cleaned_data["board"])
        except BoardError as exc:
            raise forms.ValidationError(str(exc)) from None

    def rules(self) -> Rules:
        """Return the rules chosen in the form."""
        data = self.cleaned_data
        return Rules(data["min_length"], data["adjacency"], data["scoring"])


class WordChangeForm(forms.Form):
    """Add one word to, or remove one from, a dictionary."""

    word = forms.CharField(max_length=255, strip=True)
    action = forms.ChoiceField(choices=[("add", "add"), ("remove", "remove")])
