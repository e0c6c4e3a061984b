import time
import pytest
from tests.games.conftest import DATA
from solver.dictionaries import shipped
from solver.dictionaries.services import dictionary_create, shipped_data_load
from solver.engine.wordlist import parse_word_list
from solver.models import DiceSet
from tests.fixed_dice import fixed_dice_create

@pytest.mark.parametrize("n", range(3))
def test_cost(db, n):
    t0 = time.perf_counter()
    words = parse_word_list((DATA / "dictionaries" / "dictionary-algs4.txt").read_text())
    t1 = time.perf_counter()
    d = dictionary_create(name="Test words", slug="test", word_list=words, alphabet=words.alphabet)
    t2 = time.perf_counter()
    for fields in shipped.dice_sets():
        DiceSet.objects.get_or_create(slug=fields["slug"], defaults=fields)
    fixed_dice_create()
    t3 = time.perf_counter()
    shipped_data_load()
    t4 = time.perf_counter()
    from solver.dictionaries.selectors import dictionary_trie
    dictionary_trie(d)
    t5 = time.perf_counter()
    print(f"\nparse {t1-t0:.3f} create {t2-t1:.3f} dice {t3-t2:.3f} shipped {t4-t3:.3f} trie {t5-t4:.3f}")
