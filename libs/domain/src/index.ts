export const ok = 1;
