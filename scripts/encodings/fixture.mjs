// usage: node fixture.mjs CASES.json OUT.json — dump.go's cases, one compact line each:
// [encode|decode, text or base64, encoding name, x/text's answer or null for an error].
import { readFileSync, writeFileSync } from "node:fs";
const cases = JSON.parse(readFileSync(process.argv[2], "utf8"));
const rows = cases.map((c) => JSON.stringify([c.fn.slice(4, 10), c.input, c.encoding, c.error ? null : c.result]));
const source = "golang.org/x/text 0.7.0 (Debian golang-golang-x-text-dev) through its ianaindex, encoders and decoders, as Terraform calls them; scripts/gen-encodings";
writeFileSync(process.argv[3], `{\n "source": ${JSON.stringify(source)},\n "cases": [\n${rows.map((r) => "  " + r).join(",\n")}\n ]\n}\n`);
