/** At least 44 px high on a touch screen or a narrow window: the smallest target a finger hits reliably. */
export const TOUCH_TARGET = "pointer-coarse:min-h-11 max-sm:min-h-11";
