// Loads every package (and the testkit's suites entry) the way an ESM user does, from the
// installed tarballs, and checks each entry exports something real.
const entries = process.argv.slice(2);
let failed = 0;
for (const name of entries) {
  try {
    const mod = await import(name);
    const names = Object.keys(mod).filter((key) => key !== 'default');
    if (names.length === 0) throw new Error('no named exports');
    console.log(`ok   import ${name} (${names.length} exports)`);
  } catch (error) {
    failed += 1;
    console.log(`FAIL import ${name}: ${error instanceof Error ? error.message : String(error)}`);
  }
}
process.exit(failed ? 1 : 0);
