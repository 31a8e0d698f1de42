"""The reader's model card describes the decoding its settings file asks for."""

from models.training.model_card import _reader_dissent, _reader_views


def test_the_card_counts_the_corner_cut_views_and_their_half_turns() -> None:
    text = _reader_views({"half_turns": True, "view_trims": [0.0], "view_corner_cuts": [0.04]})
    assert "5 view(s)" in text
    assert "4% cut off two adjacent sides at each of its four corners" in text
    assert "all 10 averaged" in text


def test_the_card_counts_trims_as_one_view_each() -> None:
    text = _reader_views({"half_turns": True, "view_trims": [0.0, 0.04]})
    assert "2 view(s)" in text and "4% of each side cut off" in text and "all 4 averaged" in text


def test_a_reader_read_once_has_no_view_sentence_and_no_check_without_its_setting() -> None:
    assert _reader_views({"half_turns": False}) == ""
    assert _reader_dissent({}) == ""
    assert "0.8 or more" in _reader_dissent({"side_dissent_at": 0.8})
