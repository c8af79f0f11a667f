// open-dis (1.3.6) ships no type declarations; the end-to-end tests use a few of its classes.
declare module 'open-dis' {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- an untyped JavaScript library
  const openDis: Record<string, any>;
  export default openDis;
}
