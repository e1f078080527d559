// Production ports for Node: the wall clock, crypto randomness, the activation-key hasher.
export * from './production-ports';
