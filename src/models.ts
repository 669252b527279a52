// Subpath `agent-platform-sdk/models`: the event model alone, without the HTTP clients.
export * from './models/index.js';
