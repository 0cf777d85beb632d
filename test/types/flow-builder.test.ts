import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';

// Typed flows must refuse a misspelled operator, step type, module ID or config key at compile
// time. The fixtures are compiled with the project's own compiler options; the error fixture's
// `// @ts-expect-error <label>` directives are blanked out first, so every label must yield
// exactly the diagnostic expected on the line below it, and nothing else may be reported.

const root = fileURLToPath(new URL('../..', import.meta.url));
const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));
const OK = fixture('flow-builder-ok.ts');
const ERRORS = fixture('flow-builder-errors.ts');
// A host's own outbound module, added by declaration merging: compiled only here, so it does not leak into the project.
const HOST = fixture('host-module.ts');
const HOST_SOURCE = `import { defineStep } from '@leadroute/core';
declare module '@leadroute/core' {
  interface OutboundModuleConfigs {
    'platform-acme.outbound.post': { readonly endpoint: string; readonly retries?: number };
  }
}
export const ok = defineStep({ type: 'recipient', entity_id: 'b', module_id: 'platform-acme.outbound.post', config: { endpoint: 'x' } });
// @ts-expect-error host-config-key
export const bad = defineStep({ type: 'recipient', entity_id: 'b', module_id: 'platform-acme.outbound.post', config: { endpont: 'x' } });
`;

const DIRECTIVE = /^\s*\/\/ @ts-expect-error (\S+)\s*$/;

/** The text with every directive line blanked (line numbers kept), and the line (1-based) each label guards. */
function stripDirectives(text: string): { text: string; labels: Map<string, number> } {
  const labels = new Map<string, number>();
  const lines = text.split('\n').map((line, i) => {
    const label = DIRECTIVE.exec(line)?.[1];
    if (!label) return line;
    labels.set(label, i + 2);
    return '';
  });
  return { text: lines.join('\n'), labels };
}

interface Found {
  readonly line: number;
  readonly code: number;
  readonly message: string;
}

let diagnostics: Map<string, Found[]>;
let labels: Map<string, Map<string, number>>;

beforeAll(() => {
  const config = ts.getParsedCommandLineOfConfigFile(
    `${root}tsconfig.json`,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      },
    },
  );
  if (!config) throw new Error('tsconfig.json cannot be read');
  const stripped = new Map([
    [ERRORS, stripDirectives(readFileSync(ERRORS, 'utf8'))],
    [HOST, stripDirectives(HOST_SOURCE)],
  ]);
  labels = new Map([...stripped].map(([file, s]) => [file, s.labels]));
  const host = ts.createCompilerHost(config.options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, language, onError) => {
    const text = stripped.get(ts.sys.resolvePath(name))?.text;
    return text === undefined ? getSourceFile(name, language, onError) : ts.createSourceFile(name, text, language);
  };
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (name) => stripped.has(ts.sys.resolvePath(name)) || fileExists(name);
  // The host's augmentation merges into the module for the whole program: it gets a program of its own.
  const fixtures = ts.createProgram({ rootNames: [OK, ERRORS], options: config.options, host });
  const hosted = ts.createProgram({ rootNames: [HOST], options: config.options, host, oldProgram: fixtures });
  diagnostics = new Map(
    [OK, ERRORS, HOST].map((file) => {
      const program = file === HOST ? hosted : fixtures;
      const source = program.getSourceFile(file);
      if (!source) throw new Error(`${file} was not compiled`);
      const found = [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)].map(
        (d): Found => ({
          line: d.start === undefined ? 0 : source.getLineAndCharacterOfPosition(d.start).line + 1,
          code: d.code,
          message: ts.flattenDiagnosticMessageText(d.messageText, '\n'),
        }),
      );
      return [file, found];
    }),
  );
}, 120_000);

/**
 * A union as TypeScript prints it, members sorted: the order it prints them in follows the order
 * the program created the types in, which is not the order of the declarations.
 */
const sortedUnions = (message: string) =>
  message.replace(/'([^']*? \| [^']*)'/g, (_all, union: string) => `'${union.split(' | ').sort().join(' | ')}'`);

/** A union of operator names as TypeScript prints a long one: string literals only, the middle elided. */
const OPERATORS = String.raw`"[a-z ]+"(?: \| "[a-z ]+")* \| \.\.\. \d+ more \.\.\. \| (?:"[a-z ]+"|RuleSetOp)`;

/**
 * What each label must report: the diagnostic code, and the whole message (or a pattern of it where TypeScript elides a
 * long union).
 */
const EXPECTED: Record<string, { code: number; message: string | RegExp }> = {
  'misspelled-operator': {
    code: 2820,
    message: new RegExp(
      String.raw`^Type '"is equal too"' is not assignable to type '${OPERATORS}'\. Did you mean '"is equal to"'\?$`,
    ),
  },
  'misspelled-nested-operator': {
    code: 2820,
    message: new RegExp(
      String.raw`^Type '"is included"' is not assignable to type '${OPERATORS}'\. Did you mean '"is included in"'\?$`,
    ),
  },
  // rule() has an overload per arity; TypeScript reports against the last one, the binary operators.
  'misspelled-operator-helper': {
    code: 2345,
    message: new RegExp(
      String.raw`^Argument of type '"equals"' is not assignable to parameter of type '${OPERATORS}'\.$`,
    ),
  },
  'rhv-on-unary-operator': {
    code: 2345,
    message: new RegExp(
      String.raw`^Argument of type '"is blank"' is not assignable to parameter of type '${OPERATORS}'\.$`,
    ),
  },
  'missing-rhv': {
    code: 2345,
    message: [
      `Argument of type '{ lhv: string; op: "is equal to"; }' is not assignable to parameter of type 'TypedRule | TypedRuleSet'.`,
      `  Property 'rhv' is missing in type '{ lhv: string; op: "is equal to"; }' but required in type 'TypedBinaryRule'.`,
    ].join('\n'),
  },
  'misspelled-step-type': {
    code: 2820,
    message: `Type '"recipeint"' is not assignable to type '"filter" | "recipient"'. Did you mean '"recipient"'?`,
  },
  'misspelled-config-key': {
    code: 2345,
    // The modules that share the HTTP configuration make TypeScript print the type in full, so only the sense is
    // checked: the config key is unknown, and the right one is suggested.
    message:
      /^Argument of type '\{ type: "recipient"; entity_id: string; module_id: "platform-custom\.outbound\.json"; config: \{ url: string; outcome_pth: string; \}; \}' is not assignable to parameter of type 'TypedStep'\.\n {2}Types of property 'config' are incompatible\.\n {4}Object literal may only specify known properties, but 'outcome_pth' does not exist in type '.*'\. Did you mean to write 'outcome_path'\?$/s,
  },
  'missing-required-config': {
    code: 2345,
    message: [
      `Argument of type '{ type: "recipient"; entity_id: string; module_id: "platform-custom.outbound.json"; }' is not assignable to parameter of type 'TypedStep'.`,
      `  Type '{ type: "recipient"; entity_id: string; module_id: "platform-custom.outbound.json"; }' is not assignable to type 'StepBase & { readonly type: "recipient"; readonly module_id: "platform-custom.outbound.json"; readonly credential_id?: string | undefined; } & { readonly config: CustomJsonConfig; }'.`,
      `    Property 'config' is missing in type '{ type: "recipient"; entity_id: string; module_id: "platform-custom.outbound.json"; }' but required in type '{ readonly config: CustomJsonConfig; }'.`,
    ].join('\n'),
  },
  'misspelled-module': {
    code: 2820,
    message:
      `Type '"platform-custom.outbound.jsn"' is not assignable to type '"platform-certificate.outbound.claim" | ` +
      '"platform-custom.outbound.form" | "platform-custom.outbound.get" | "platform-custom.outbound.json" | ' +
      // biome-ignore lint/suspicious/noTemplateCurlyInString: how TypeScript prints a template literal type
      '"platform-custom.outbound.xml" | `platform-test.outbound.${string}` | undefined\'. ' +
      `Did you mean '"platform-custom.outbound.json"'?`,
  },
  'misspelled-flow-key': {
    code: 2561,
    message:
      "Object literal may only specify known properties, but 'stpes' does not exist in type 'TypedFlow'. Did you mean to write 'steps'?",
  },
};

describe('typed flows do not compile with a typo', () => {
  it('the valid fixture compiles with no diagnostic', () => {
    expect(diagnostics.get(OK)).toEqual([]);
  });

  it('every typo fixture is guarded by a label this test knows, and only those are reported', () => {
    expect([...(labels.get(ERRORS)?.keys() ?? [])].sort()).toEqual(Object.keys(EXPECTED).sort());
    const lines = [...(labels.get(ERRORS)?.values() ?? [])].sort((a, b) => a - b);
    expect(diagnostics.get(ERRORS)?.map((d) => d.line)).toEqual(lines);
  });

  it.each(Object.entries(EXPECTED))('%s', (label, expected) => {
    const line = labels.get(ERRORS)?.get(label);
    const found = diagnostics.get(ERRORS)?.filter((d) => d.line === line) ?? [];
    expect(found.map((d) => d.code)).toEqual([expected.code]);
    const message = found[0]?.message ?? '';
    if (typeof expected.message === 'string') expect(sortedUnions(message)).toBe(sortedUnions(expected.message));
    else expect(message).toMatch(expected.message);
  });

  it("a host's own module, added by declaration merging, has its config checked too", () => {
    expect(diagnostics.get(HOST)).toEqual([
      {
        line: labels.get(HOST)?.get('host-config-key'),
        code: 2345,
        message: [
          `Argument of type '{ type: "recipient"; entity_id: string; module_id: "platform-acme.outbound.post"; config: { endpont: string; }; }' is not assignable to parameter of type 'TypedStep'.`,
          `  Types of property 'config' are incompatible.`,
          `    Object literal may only specify known properties, but 'endpont' does not exist in type '{ readonly endpoint: string; readonly retries?: number | undefined; }'. Did you mean to write 'endpoint'?`,
        ].join('\n'),
      },
    ]);
  });
});
