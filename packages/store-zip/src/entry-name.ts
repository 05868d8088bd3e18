import { StoreError, storeKeyProblem } from "@zarrkit/registry";
import { FLAG_UTF8 } from "./zip-records.js";
import { type ZipPlace, zipError } from "./zip-errors.js";

// Code page 437 above 0x7f: what names without the UTF-8 flag are in (APPNOTE appendix D).
const CP437_HIGH =
  "ÇüéâäàåçêëèïîìÄÅÉæÆôöòûùÿÖÜ¢£¥₧ƒáíóúñÑªº¿⌐¬½¼¡«»░▒▓│┤╡╢╖╕╣║╗╝╜╛┐└┴┬├─┼╞╟╚╔╩╦╠═╬╧╨╤╥╙╘╒╓╫╪┘┌█▄▌▐▀" +
  "αßΓπΣσµτΦΘΩδ∞φε∩≡±≥≤⌠⌡÷≈°∙·√ⁿ²■\u00a0";

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** The entry name stored as `raw`: UTF-8 when the flag says so (or it is ASCII), code page 437 otherwise. */
export function decodeEntryName(raw: Uint8Array, flags: number, place: ZipPlace): string {
  const ascii = raw.every((byte) => byte < 0x80);
  if (ascii || flags & FLAG_UTF8) {
    try {
      return utf8.decode(raw);
    } catch (cause) {
      throw zipError(StoreError, place, "an entry name flagged as UTF-8 is not valid UTF-8", cause);
    }
  }
  let name = "";
  for (const byte of raw) name += byte < 0x80 ? String.fromCharCode(byte) : CP437_HIGH[byte - 0x80];
  return name;
}

/**
 * Why an entry name cannot be read as a key: it escapes the archive's root
 * (absolute, a drive letter, a ".." segment) or is no plain relative path.
 * Names of directories (ending in "/") are checked without the slash.
 */
export function entryNameProblem(name: string): string | undefined {
  if (/^[a-zA-Z]:/.test(name)) return "it starts with a drive letter (it would escape the archive's root)";
  const key = name.endsWith("/") ? name.slice(0, -1) : name;
  if (key.startsWith("/")) return "it is absolute (it would escape the archive's root)";
  if (key.split("/").includes("..")) return 'it has a ".." segment (it would escape the archive\'s root)';
  return storeKeyProblem(key);
}
