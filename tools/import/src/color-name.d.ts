// color-name 1.x ships no types: the CSS colour names, each as [red, green, blue].
declare module 'color-name' {
  const colours: Readonly<Record<string, readonly [number, number, number]>>;
  export default colours;
}
