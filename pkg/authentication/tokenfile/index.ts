// --token-auth-file: CSV rows `token,user,uid[,"group1,group2"]`.
import { readFileSync } from 'node:fs';
import type { AuthResult, TokenAuthenticator } from '../interfaces.js';
import type { UserInfo } from '../user.js';

export class TokenFileAuthenticator implements TokenAuthenticator {
  readonly name = 'tokenfile';
  constructor(private readonly tokens: Map<string, UserInfo>) {}

  static fromFile(path: string): TokenFileAuthenticator {
    return new TokenFileAuthenticator(parseTokenFile(readFileSync(path, 'utf8'), path));
  }

  async authenticateToken(token: string): Promise<AuthResult> {
    const user = this.tokens.get(token);
    return user ? { decision: 'authenticated', user: structuredClone(user) } : { decision: 'noOpinion' };
  }
}

export function parseTokenFile(text: string, path = 'token file'): Map<string, UserInfo> {
  const tokens = new Map<string, UserInfo>();
  text.split(/\r?\n/).forEach((line, i) => {
    if (line.trim() === '' || line.trim().startsWith('#')) return;
    const fields = parseCsvLine(line);
    if (fields === undefined) throw new Error(`${path}: line ${i + 1}: malformed CSV`);
    if (fields.length < 3) throw new Error(`${path}: line ${i + 1}: needs at least 3 columns (token, user, uid), found ${fields.length}`);
    const [token, name, uid, groups] = fields;
    if (!token) throw new Error(`${path}: line ${i + 1}: empty token`);
    if (!name) throw new Error(`${path}: line ${i + 1}: empty user name`);
    if (tokens.has(token)) throw new Error(`${path}: line ${i + 1}: duplicate token`);
    tokens.set(token, { name, uid, groups: groups ? groups.split(',').map((g) => g.trim()).filter(Boolean) : [] });
  });
  return tokens;
}

/** One CSV record with RFC 4180 quoting; undefined when quotes are unbalanced. */
function parseCsvLine(line: string): string[] | undefined {
  const out: string[] = [];
  let cur = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') { cur += '"'; i++; } else if (c === '"') quoted = false;
      else cur += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') { out.push(cur); cur = ''; } else cur += c;
  }
  if (quoted) return undefined;
  out.push(cur);
  return out.map((f) => f.trim());
}
