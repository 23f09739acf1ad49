/**
 * @statecraft/adapter-claude-code — (being built).
 */
export {};
