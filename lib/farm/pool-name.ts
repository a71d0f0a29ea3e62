/** A pool's name, as the pools service enforces it and the create form checks while typing: 1–64 letters, digits, '_', '.', '-', starting with a letter or digit. */
export const POOL_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
