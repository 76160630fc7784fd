/** A translation of an English namespace: exactly its keys (a missing or an extra one does not compile). */
export type Messages<T> = { [K in keyof T]: string };
