'use strict';
// Reads JSON lines on standard input and writes, for each, a line with
// ajv's verdict (ajv-formats' formats added, in its default "full" mode):
//   ["format", NAME, VALUE]      VALUE against {"format": NAME}
//   ["pattern", PATTERN, STRING] STRING against {"pattern": PATTERN}: as ajv
//                                checks it, new RegExp(PATTERN, "u").test(STRING)
//                                (compiling a schema for each of thousands
//                                of patterns would take ajv seconds)
// The verdict is true, false, "invalid" when the schema does not compile,
// or "throws" when the check throws (ajv-formats' byte overflows V8's
// stack on strings of megabytes).
const Ajv = require('ajv');
const addFormats = require('ajv-formats');

const ajv = new Ajv({strict: false});
addFormats(ajv);
const compiled = new Map();
const lines = require('fs').readFileSync(0, 'utf8').split('\n').filter((l) => l !== '');
const out = [];
for (const line of lines) {
  const [kind, a, b] = JSON.parse(line);
  const key = kind + '\u0000' + a;
  if (!compiled.has(key)) {
    try {
      if (kind === 'format') {
        compiled.set(key, ajv.compile({format: a}));
      } else {
        const re = new RegExp(a, 'u');
        compiled.set(key, (s) => re.test(s));
      }
    } catch (e) {
      compiled.set(key, null);
    }
  }
  const validate = compiled.get(key);
  if (validate === null) {
    out.push('invalid');
    continue;
  }
  try {
    out.push(String(validate(b)));
  } catch (e) {
    out.push('throws');
  }
}
process.stdout.write(out.join('\n') + '\n');
