export { FixedClock } from '../shared/clock';
export { SeededRandomSource } from '../shared/random-source';
