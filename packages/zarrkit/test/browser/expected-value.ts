/** The value at flat index `i` of the test array: every element differs from its neighbours. */
export function expectedValue(i: number): number {
  return (i * 7 + (i >> 11)) & 0xffff;
}
