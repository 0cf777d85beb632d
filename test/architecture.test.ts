import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { coreDependencies, coreImportGraph, layerViolations } from '../scripts/layers';
import { findUnusedResults, programOf } from '../scripts/unused-results';

const root = fileURLToPath(new URL('..', import.meta.url));

describe('#20.5 the layers of the core', () => {
  const graph = coreImportGraph(`${root}packages/core/src`);
  const deps = coreDependencies(`${root}packages/core/package.json`);

  it('hold in the tree: ports and domain import no feature folder, only http/ knows HTTP, no adapter or SDK', () => {
    expect(graph.size).toBeGreaterThan(100);
    expect(graph.get('ports/events')).toContain('../domain/events');
    expect(layerViolations(graph, deps)).toEqual([]);
  });

  it('are checked: each kind of violation is reported', () => {
    const bad = new Map([
      ['ports/events', ['../events/recorder', '../domain/events', '../ids', 'neverthrow']],
      ['domain/flows', ['../ports/flows']],
      ['alerts/service', ['../http/handler', 'node:http', 'pg', '@aws-sdk/client-s3', 'left-pad']],
      ['http/node', ['node:http', '../ports']],
      ['index', ['./http']],
    ]);
    expect(layerViolations(bad, [...deps, 'pg'])).toEqual([
      'ports/events imports events/recorder: ports/ imports only domain/, ids and errors',
      'domain/flows imports ports/flows: domain/ imports only domain/, ids and errors',
      'alerts/service imports http/handler: only the package entry imports http/',
      'alerts/service imports node:http: only http/ and the outbound client know HTTP',
      'alerts/service imports pg: core imports no adapter, framework or SDK',
      'alerts/service imports @aws-sdk/client-s3: core imports no adapter, framework or SDK',
      "alerts/service imports left-pad, which is not one of core's dependencies",
    ]);
  });
});

describe('#20.4 unused Results and floating promises', () => {
  it('are found by type, and `void`, await-and-read, catch and two-handed then are accepted', () => {
    const fixture = `${root}test/fixtures/unused-results/`;
    const findings = findUnusedResults(programOf(`${fixture}tsconfig.json`), fixture);
    expect(findings.map((f) => [f.file, f.line, f.message.split(' is never')[0]])).toEqual([
      ['sample.ts', 16, 'a Promise'],
      ['sample.ts', 17, 'a neverthrow Result'],
      ['sample.ts', 18, 'a ResultAsync'],
      ['sample.ts', 19, 'a neverthrow Result'],
    ]);
  }, 60_000);
});
