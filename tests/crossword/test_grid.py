from crossing.crossword.grid import Direction, Grid


def test_numbering_follows_reading_order_and_counts_only_word_starts():
    grid = Grid.from_rows(["#...", "....", "....", "...#"])
    assert grid.numbers == {1: 1, 2: 2, 3: 3, 4: 4, 8: 5, 12: 6}
    across = [s.id for s in grid.slots if s.direction is Direction.ACROSS]
    down = [s.id for s in grid.slots if s.direction is Direction.DOWN]
    assert across == ["1a", "4a", "5a", "6a"]
    assert down == ["1d", "2d", "3d", "4d"]
