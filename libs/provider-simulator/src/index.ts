export * from './simulator';
