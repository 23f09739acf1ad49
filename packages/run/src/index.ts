/**
 * @statecraft/run — (being built).
 */
export {};
