/**
 * Runs `work`, waits for the process to report what it left (Node reports an unhandled rejection after a turn of
 * the event loop) and answers the rejections nobody handled meanwhile: each would have ended a Node process run with
 * the default `--unhandled-rejections=throw`.
 */
export async function unhandledRejectionsOf(work: () => Promise<void>): Promise<unknown[]> {
  const escaped: unknown[] = [];
  const onRejection = (reason: unknown) => escaped.push(reason);
  process.on('unhandledRejection', onRejection);
  try {
    await work();
    await new Promise((resolve) => setTimeout(resolve, 20));
  } finally {
    process.off('unhandledRejection', onRejection);
  }
  return escaped;
}
