// Recomputes the known token counts in ../tokens_test.go with an
// independent implementation of the same encodings: the npm package
// tiktoken, OpenAI's own tiktoken (its Rust core compiled to WebAssembly,
// with its own copy of the vocabularies). The Go test does not run this;
// it holds the numbers printed.
//
// js-tiktoken, the pure-JavaScript port, is not used: JavaScript's \s
// matches U+FEFF, so it splits text around a byte-order mark differently
// from tiktoken and counts unicode.txt one token higher.
//
// From the repository root:
//
//   mkdir -p /tmp/tok-oracle && (cd /tmp/tok-oracle && npm install tiktoken@1.0.22)
//   (cd /tmp/tok-oracle && node "$OLDPWD/tokens/testdata/oracle.mjs" "$OLDPWD/tokens/testdata")
//
// tiktoken is loaded from the working directory's node_modules.
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { createRequire } from "node:module";

const require = createRequire(join(process.cwd(), "noop.js"));
const { get_encoding } = require("tiktoken");

const dir = process.argv[2] ?? ".";
const names = readdirSync(dir)
  .filter((n) => /\.(txt|ts)$/.test(n))
  .sort();
const texts = names.map((n) => [n, readFileSync(join(dir, n), "utf8")]);
// "long" is every fixture joined in name order, 64 times over, as
// fixtures in the Go test builds it.
texts.push(["long", texts.map(([, t]) => t).join("").repeat(64)]);

const encs = ["o200k_base", "cl100k_base"].map((e) => get_encoding(e));
for (const [name, text] of texts) {
  // Ordinary text: special tokens' spellings count as their characters.
  const counts = encs.map((e) => e.encode_ordinary(text).length);
  console.log(`{${JSON.stringify(name)}, ${Buffer.byteLength(text)}, ${counts[0]}, ${counts[1]}},`);
}
for (const e of encs) e.free();
