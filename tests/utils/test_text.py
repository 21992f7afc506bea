import pytest

from costsense.utils._text import printable


@pytest.mark.parametrize(
    "hostile",
    ["\r", "\x1b[2K", "\x08", "\x7f", "\x9b", "\u2028", "\u202e", "\n", "\t", "\x00"],
)
def test_control_characters_are_escaped_to_visible_text(hostile):
    shown = printable(f"2026-01-01{hostile}signature verified")
    assert shown.isprintable()
    # the escape is the character's Python escape, so the file's bytes are recoverable
    assert shown == "2026-01-01" + hostile.encode("unicode_escape").decode() + (
        "signature verified"
    )


def test_printable_text_and_accents_are_kept_unchanged():
    assert printable("créé le 1ᵉʳ mai, 5 € / ligne") == "créé le 1ᵉʳ mai, 5 € / ligne"


def test_long_text_is_cut_and_says_how_long_it_was():
    shown = printable("x" * 10_000, limit=50)
    assert shown == "x" * 50 + "... (10000 characters)"
