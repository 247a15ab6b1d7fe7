/** A network file that cannot be read (truncated, corrupt, of another version or an unknown shape), and why. */
export class NetworkFormatError extends Error {
  override readonly name = 'NetworkFormatError';
}
