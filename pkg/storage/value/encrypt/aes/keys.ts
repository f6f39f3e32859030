// AES-128, -192 or -256 by the key's length, as Go's aes.NewCipher chooses.
export function aesAlgorithm(key: Buffer): string {
  if (key.length !== 16 && key.length !== 24 && key.length !== 32) throw new Error(`crypto/aes: invalid key size ${key.length}`);
  return `aes-${key.length * 8}`;
}
