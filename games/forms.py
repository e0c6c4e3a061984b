"""Forms for creating and joining rooms over HTTP (the game itself runs on the websocket)."""

from __future__ import annotations

from django import forms

from games.room_settings import PRESET_NAMES
from games.services.rooms import CODE_LENGTH, NICKNAME_MAX


class CreateRoomForm(forms.Form):
    """A nickname and the settings for a new room."""

    nickname = forms.CharField(max_length=NICKNAME_MAX)
    preset = forms.ChoiceField(choices=list(PRESET_NAMES.items()), initial="classic")
    dictionary = forms.CharField(required=False, max_length=50)
    dice = forms.CharField(required=False, max_length=50)
    rows = forms.IntegerField(required=False, min_value=1, max_value=10)
    cols = forms.IntegerField(required=False, min_value=1, max_value=10)
    min_length = forms.IntegerField(required=False, min_value=1, max_value=10)
    duration = forms.IntegerField(required=False, min_value=0, max_value=1800)
    scoring = forms.ChoiceField(
        required=False, choices=[("classic", "Classic"), ("linear", "Linear")]
    )
    adjacency = forms.ChoiceField(
        required=False, choices=[("king", "8 neighbours"), ("rook", "4 neighbours")]
    )
    duplicates = forms.ChoiceField(
        required=False, choices=[("cancel", "Shared words cancel"), ("count", "Every word counts")]
    )

    def room_settings(self) -> dict[str, object]:
        """Return the settings as the room services take them (blank fields left out)."""
        return {
            k: v for k, v in self.cleaned_data.items() if k != "nickname" and v not in (None, "")
        }


class JoinRoomForm(forms.Form):
    """A room code (when not in the link) and a nickname."""

    code = forms.CharField(max_length=CODE_LENGTH + 6, required=False)
    nickname = forms.CharField(max_length=NICKNAME_MAX)

    def clean_code(self) -> str:
        return "".join(self.cleaned_data.get("code", "").split()).upper()
