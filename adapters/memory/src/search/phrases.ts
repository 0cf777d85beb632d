import type { SearchPhrase } from '@leadroute/core';

/** Between two fields' words: no word has this id, so no phrase matches across fields. */
const FIELD_BREAK = 0;

/**
 * Every document's fields as phrases see them (core's `phraseText`: their words), stored as
 * word ids one field after another in one growing typed array. Checking a phrase
 * is then a scan of a few dozen integers in one place rather than a string search
 * per field, and the index keeps no text per lead for it.
 */
export interface PhraseStore {
  /** Word → id, from 1. */
  readonly ids: Map<string, number>;
  seq: Uint32Array;
  length: number;
  /** Document n's words are `seq[starts[n]..starts[n + 1])`. */
  readonly starts: number[];
}

export function phraseStore(): PhraseStore {
  return { ids: new Map(), seq: new Uint32Array(1024), length: 0, starts: [0] };
}

function append(store: PhraseStore, id: number): void {
  if (store.length === store.seq.length) {
    const grown = new Uint32Array(store.seq.length * 2);
    grown.set(store.seq);
    store.seq = grown;
  }
  store.seq[store.length++] = id;
}

/** Appends the next document's words, each field's as `fieldTokens` reads them (documents are added in number order). */
export function addPhrases(store: PhraseStore, fields: readonly (readonly string[])[]): void {
  for (const words of fields) {
    for (const word of words) {
      let id = store.ids.get(word);
      if (id === undefined) store.ids.set(word, (id = store.ids.size + 1));
      append(store, id);
    }
    append(store, FIELD_BREAK);
  }
  store.starts.push(store.length);
}

/** The phrase as word ids, or undefined when one of its words is in no document (so nothing matches). */
export function phraseIds(store: PhraseStore, phrase: SearchPhrase): Uint32Array | undefined {
  const words = phrase.text.split(' ');
  const out = new Uint32Array(words.length);
  for (let i = 0; i < words.length; i++) {
    const id = store.ids.get(words[i] as string);
    if (id === undefined) return undefined;
    out[i] = id;
  }
  return out;
}

/** Whether document `n` has the words `ids` in a row within one field. */
export function holdsPhrase(store: PhraseStore, n: number, ids: Uint32Array): boolean {
  const { seq } = store;
  const end = (store.starts[n + 1] as number) - ids.length;
  const first = ids[0] as number;
  for (let i = store.starts[n] as number; i <= end; i++) {
    if (seq[i] !== first) continue;
    let j = 1;
    while (j < ids.length && seq[i + j] === ids[j]) j++;
    if (j === ids.length) return true;
  }
  return false;
}
