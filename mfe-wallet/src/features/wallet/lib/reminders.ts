/** With more cards than this (the mascot's included), the reminders become a carousel. */
export const MAX_CARDS_IN_A_ROW = 3;

export const showsAsCarousel = (cardCount: number) => cardCount > MAX_CARDS_IN_A_ROW;
