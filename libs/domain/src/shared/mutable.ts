/** A state type without its `readonly` marks: how an aggregate (or an adapter building one) writes its own state. */
export type Mutable<T> = { -readonly [K in keyof T]: T[K] };
