/**
 * @statecraft/environment — (being built).
 */
export {};
