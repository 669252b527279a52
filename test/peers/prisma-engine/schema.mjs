// Just enough of a schema.prisma file: each model's fields, their types, and which are relations.
export function readSchema(text) {
  const models = new Map();
  const enums = new Set([...text.matchAll(/^enum\s+(\w+)/gm)].map((m) => m[1]));
  for (const match of text.matchAll(/^model\s+(\w+)\s*\{([\s\S]*?)^\}/gm)) {
    const fields = new Map();
    for (const line of match[2].split('\n')) {
      const field = /^\s*(\w+)\s+(\w+)(\[\])?(\?)?/.exec(line);
      if (!field || line.trim().startsWith('@@') || line.trim().startsWith('//')) continue;
      fields.set(field[1], { type: field[2], list: Boolean(field[3]) });
    }
    models.set(match[1], fields);
  }
  for (const fields of models.values()) {
    for (const field of fields.values()) field.relation = models.has(field.type) ? field.type : undefined;
    for (const field of fields.values()) field.enum = enums.has(field.type);
  }
  return models;
}
