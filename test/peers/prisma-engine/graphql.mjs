// Reads the GraphQL-style query text prisma-client-py (0.11) sends to Prisma's query engine:
//
//   mutation { result: createOneModel ( data: { key: "json literal" … } ) { field rel { … } rel( … ) { … } } }
//
// Values are JSON literals (strings, numbers, true/false/null), `{ key: value }` objects and `[a, b]` lists;
// selections are field names with optional arguments and sub-selections. Nothing else of GraphQL is used.

function tokenize(text) {
  const tokens = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (/\s|,/.test(c)) {
      i++;
    } else if ('{}()[]:'.includes(c)) {
      tokens.push({ kind: c });
      i++;
    } else if (c === '"') {
      let j = i + 1;
      while (text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      tokens.push({ kind: 'value', value: JSON.parse(text.slice(i, j + 1)) });
      i = j + 1;
    } else if (/[-0-9]/.test(c)) {
      const match = /^-?\d+(\.\d+)?([eE][-+]?\d+)?/.exec(text.slice(i));
      tokens.push({ kind: 'value', value: Number(match[0]), raw: match[0] });
      i += match[0].length;
    } else {
      const match = /^[A-Za-z_][A-Za-z0-9_]*/.exec(text.slice(i));
      if (!match) throw new Error(`unexpected character ${JSON.stringify(c)} at ${i}`);
      const word = match[0];
      if (word === 'true' || word === 'false' || word === 'null') {
        tokens.push({ kind: 'value', value: word === 'null' ? null : word === 'true' });
      } else tokens.push({ kind: 'name', value: word });
      i += word.length;
    }
  }
  return tokens;
}

class Reader {
  constructor(tokens) {
    this.tokens = tokens;
    this.at = 0;
  }
  peek() {
    return this.tokens[this.at];
  }
  next(kind) {
    const token = this.tokens[this.at++];
    if (kind && token?.kind !== kind) throw new Error(`expected ${kind}, got ${token?.kind}`);
    return token;
  }
  value() {
    const token = this.next();
    if (token.kind === 'value') return token.value;
    if (token.kind === '{') {
      const object = {};
      while (this.peek().kind !== '}') {
        const key = this.next('name').value;
        this.next(':');
        object[key] = this.value();
      }
      this.next('}');
      return object;
    }
    if (token.kind === '[') {
      const list = [];
      while (this.peek().kind !== ']') list.push(this.value());
      this.next(']');
      return list;
    }
    // Enum values may come bare.
    if (token.kind === 'name') return token.value;
    throw new Error(`unexpected ${token.kind}`);
  }
  arguments() {
    const args = {};
    this.next('(');
    while (this.peek().kind !== ')') {
      const key = this.next('name').value;
      this.next(':');
      args[key] = this.value();
    }
    this.next(')');
    return args;
  }
  /** `{ a b { … } c( … ) { … } }` → `{ a: true, b: { selection }, c: { arguments, selection } }`. */
  selection() {
    const selection = {};
    this.next('{');
    while (this.peek().kind !== '}') {
      const name = this.next('name').value;
      const field = {};
      if (this.peek()?.kind === '(') field.arguments = this.arguments();
      if (this.peek()?.kind === '{') field.selection = this.selection();
      selection[name] = Object.keys(field).length === 0 ? true : field;
    }
    this.next('}');
    return selection;
  }
}

/** `{ operation, field, arguments, selection }` of one query text. */
export function parseQuery(text) {
  const reader = new Reader(tokenize(text));
  const operation = reader.next('name').value;
  reader.next('{');
  const alias = reader.next('name').value;
  reader.next(':');
  const field = reader.next('name').value;
  const args = reader.peek()?.kind === '(' ? reader.arguments() : {};
  const selection = reader.peek()?.kind === '{' ? reader.selection() : {};
  reader.next('}');
  return { operation, alias, field, arguments: args, selection };
}
