export * from './shared/domain-error';
export * from './shared/clock';
export * from './shared/random-source';
export * from './shared/id-generator';
