/** DI token of the `LeakScannerSlot` (leak-scanner.ts). */
export const LEAK_SCANNER = Symbol('LeakScannerSlot');
