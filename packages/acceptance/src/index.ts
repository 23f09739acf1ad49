/**
 * @statecraft/acceptance — (being built).
 */
export {};
