/**
 * The type-aware check Biome cannot make: a statement whose value is a Promise (or any
 * thenable, such as neverthrow's ResultAsync) or a neverthrow Result, left unused. A
 * floating promise loses its rejection; a Result nobody reads loses its error, which is
 * the whole point of errors as values. Write `void x` to drop one on purpose.
 *
 * `npx tsx scripts/unused-results.ts` prints each finding as `file:line:column message`
 * and exits 1 when there is any; `.ci/run` runs it. `findUnusedResults` is what
 * test/architecture.test.ts calls on fixtures.
 */
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export interface Finding {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly message: string;
  /** Where the unused expression starts and ends in the file (offsets). */
  readonly start: number;
  readonly end: number;
}

/** What an unused value of this type loses, or undefined when dropping it is harmless. */
function lostBy(type: ts.Type, checker: ts.TypeChecker): string | undefined {
  for (const part of type.isUnion() ? type.types : [type]) {
    const name = part.getSymbol()?.getName() ?? part.aliasSymbol?.getName();
    if (name === 'Ok' || name === 'Err' || name === 'Result')
      return 'a neverthrow Result is never read: handle its error (match, map, isErr) or drop it with `void`';
    if (name === 'ResultAsync')
      return 'a ResultAsync is never awaited: await it and read the Result, or drop it with `void`';
    const then = checker.getPropertyOfType(part, 'then');
    if (then && checker.getTypeOfSymbol(then).getCallSignatures().length > 0)
      return 'a Promise is never awaited (a floating promise): await it, return it, or drop it with `void`';
  }
  return undefined;
}

/** A chain with `.catch(handler)` or `.then(onFulfilled, onRejected)` in it handles the rejection itself. */
function handlesRejection(expression: ts.Expression): boolean {
  let node: ts.Expression = expression;
  while (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
    const method = node.expression.name.text;
    if ((method === 'catch' && node.arguments.length >= 1) || (method === 'then' && node.arguments.length >= 2))
      return true;
    node = node.expression.expression;
  }
  return false;
}

export function findUnusedResults(program: ts.Program, root: string): Finding[] {
  const checker = program.getTypeChecker();
  const findings: Finding[] = [];
  for (const source of program.getSourceFiles()) {
    if (source.isDeclarationFile || source.fileName.includes('/node_modules/')) continue;
    const visit = (node: ts.Node): void => {
      if (ts.isExpressionStatement(node)) {
        const expression = ts.isParenthesizedExpression(node.expression) ? node.expression.expression : node.expression;
        const ignored =
          ts.isVoidExpression(expression) ||
          (ts.isBinaryExpression(expression) && expression.operatorToken.kind >= ts.SyntaxKind.FirstAssignment) ||
          handlesRejection(expression);
        const message = ignored ? undefined : lostBy(checker.getTypeAtLocation(expression), checker);
        if (message) {
          const at = source.getLineAndCharacterOfPosition(node.getStart(source));
          findings.push({
            file: relative(root, source.fileName),
            line: at.line + 1,
            column: at.character + 1,
            message,
            start: expression.getStart(source),
            end: expression.getEnd(),
          });
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return findings;
}

/** The program of a tsconfig file, as `tsc -p` builds it. */
export function programOf(configPath: string): ts.Program {
  const config = ts.getParsedCommandLineOfConfigFile(
    configPath,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      },
    },
  );
  if (!config) throw new Error(`cannot read ${configPath}`);
  return ts.createProgram({ rootNames: config.fileNames, options: config.options });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const findings = findUnusedResults(programOf(`${root}tsconfig.json`), root);
  for (const f of findings) console.log(`${f.file}:${f.line}:${f.column} ${f.message}`);
  console.log(`unused-results: ${findings.length} finding${findings.length === 1 ? '' : 's'}`);
  process.exit(findings.length > 0 ? 1 : 0);
}
