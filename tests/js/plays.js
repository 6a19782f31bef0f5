// Plays shaped like the answers of POST /api/solve, for the client tests.

function square(row, col, letter, value, letterMultiplier, wordMultiplier, blank = false) {
  return {
    row,
    col,
    letter,
    value,
    letter_multiplier: letterMultiplier,
    word_multiplier: wordMultiplier,
    new: true,
    blank,
  };
}

export const quixote = {
  word: "QUIXOTE",
  row: 8,
  col: 6,
  direction: "across",
  score: 110,
  tiles_used: 7,
  breakdown: {
    words: [
      {
        word: "QUIXOTE",
        row: 8,
        col: 6,
        direction: "across",
        score: 70,
        word_multiplier: 2,
        squares: [
          square(8, 6, "Q", 10, 2, 1),
          square(8, 7, "U", 2, 1, 1),
          square(8, 8, "I", 1, 1, 1),
          square(8, 9, "X", 8, 1, 1),
          square(8, 10, "O", 1, 2, 1),
          square(8, 11, "T", 1, 1, 1),
          square(8, 12, "E", 1, 1, 2),
        ],
      },
    ],
    bonuses: [{ name: "sweep", points: 40 }],
    total: 110,
  },
};

export const quizWithBlank = {
  word: "QuIZ", // the engine writes a blank in lower case
  row: 8,
  col: 8,
  direction: "across",
  score: 21,
  tiles_used: 4,
  breakdown: {
    words: [
      {
        word: "QUIZ",
        row: 8,
        col: 8,
        direction: "across",
        score: 21,
        word_multiplier: 1,
        squares: [
          square(8, 8, "Q", 10, 1, 1),
          square(8, 9, "U", 0, 1, 1, true),
          square(8, 10, "I", 1, 1, 1),
          square(8, 11, "Z", 10, 1, 1),
        ],
      },
    ],
    bonuses: [],
    total: 21,
  },
};
