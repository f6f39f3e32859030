// --token-auth-file: CSV records `token,user,uid[,"group1,group2"]` read as Go's CSV
// reader does (no comments, no trimming, quoted fields may hold commas). A malformed
// record or one with fewer than three columns stops the server, naming the line; an
// empty or repeated token is skipped or overrides, with a warning, as upstream.
import { readFileSync } from 'node:fs';
import type { AuthResult, TokenAuthenticator } from '../interfaces.js';
import type { UserInfo } from '../user.js';

export interface ParsedTokenFile {
  tokens: Map<string, UserInfo>;
  warnings: string[];
}

export class TokenFileAuthenticator implements TokenAuthenticator {
  readonly name = 'tokenfile';
  constructor(private readonly tokens: Map<string, UserInfo>, readonly warnings: string[] = []) {}

  static fromFile(path: string): TokenFileAuthenticator {
    const parsed = parseTokenFile(readFileSync(path, 'utf8'), path);
    return new TokenFileAuthenticator(parsed.tokens, parsed.warnings);
  }

  async authenticateToken(token: string): Promise<AuthResult> {
    const user = this.tokens.get(token);
    return user ? { decision: 'authenticated', user: structuredClone(user) } : { decision: 'noOpinion' };
  }
}

export function parseTokenFile(text: string, path = 'token file'): ParsedTokenFile {
  const tokens = new Map<string, UserInfo>();
  const warnings: string[] = [];
  let recordNum = 0;
  for (const { fields, line } of csvRecords(text, path)) {
    recordNum++;
    if (fields.length < 3) {
      throw new Error(`token file '${path}' must have at least 3 columns (token, user name, user uid), found ${fields.length} (line ${line})`);
    }
    const [token, name, uid, groups] = fields as [string, string, string, string | undefined];
    if (token === '') {
      warnings.push(`empty token has been found in token file '${path}', record number '${recordNum}'`);
      continue;
    }
    if (tokens.has(token)) warnings.push(`duplicate token has been found in token file '${path}', record number '${recordNum}'`);
    const user: UserInfo = { name, uid, groups: groups !== undefined ? groups.split(',') : [] };
    tokens.set(token, user);
  }
  return { tokens, warnings };
}

/** Records of RFC 4180 CSV as Go's encoding/csv reads them; empty lines are skipped. */
function* csvRecords(text: string, path: string): Generator<{ fields: string[]; line: number }> {
  let i = 0;
  let line = 1;
  const n = text.length;
  while (i < n) {
    // Blank lines are not records.
    if (text[i] === '\n' || (text[i] === '\r' && text[i + 1] === '\n')) {
      i += text[i] === '\r' ? 2 : 1;
      line++;
      continue;
    }
    const startLine = line;
    const fields: string[] = [];
    for (;;) {
      let field = '';
      if (text[i] === '"') {
        const quoteLine = line;
        const quoteCol = column(text, i);
        i++;
        for (;;) {
          if (i >= n) throw csvError(path, quoteLine, startLine, quoteCol, 'extraneous or missing " in quoted-field');
          const c = text[i]!;
          if (c === '"') {
            if (text[i + 1] === '"') { field += '"'; i += 2; continue; }
            i++;
            break;
          }
          if (c === '\n') line++;
          field += c;
          i++;
        }
        if (i < n && text[i] !== ',' && text[i] !== '\n' && !(text[i] === '\r' && text[i + 1] === '\n')) {
          throw csvError(path, line, startLine, column(text, i), 'extraneous or missing " in quoted-field');
        }
      } else {
        while (i < n && text[i] !== ',' && text[i] !== '\n' && !(text[i] === '\r' && text[i + 1] === '\n')) {
          if (text[i] === '"') throw csvError(path, line, startLine, column(text, i), 'bare " in non-quoted-field');
          field += text[i];
          i++;
        }
      }
      fields.push(field);
      if (i < n && text[i] === ',') { i++; continue; }
      if (i < n) { i += text[i] === '\r' ? 2 : 1; line++; }
      break;
    }
    yield { fields, line: startLine };
  }
}

function column(text: string, i: number): number {
  return i - text.lastIndexOf('\n', i - 1);
}

function csvError(path: string, line: number, startLine: number, col: number, what: string): Error {
  const where = startLine !== line ? `record on line ${startLine}; parse error on line ${line}, column ${col}` : `parse error on line ${line}, column ${col}`;
  return new Error(`token file '${path}': ${where}: ${what}`);
}
