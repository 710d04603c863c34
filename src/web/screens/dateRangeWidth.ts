/** A period filter's width (its picker, and what stands for it while the picker's code loads). */
export const DATE_RANGE_WIDTH = 250;
