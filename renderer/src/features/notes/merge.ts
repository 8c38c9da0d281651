import { diff3Merge } from 'node-diff3';

/** Two versions of a note merged line by line against the version both started from. */
export interface MergedText {
  text: string;
  /** Places changed differently on both sides: both are kept there, between markers. */
  conflicts: number;
}

/**
 * Three-way merge of a note: lines changed on one side only are taken from that side; where both
 * sides changed the same lines differently, both versions are kept one after the other between
 * marker lines naming whose they are, so no one's words are lost.
 */
export function mergeTexts(base: string, mine: string, theirs: string, labels: { mine: string; theirs: string }): MergedText {
  const regions = diff3Merge(mine.split('\n'), base.split('\n'), theirs.split('\n'), { excludeFalseConflicts: true });
  const out: string[] = [];
  let conflicts = 0;
  for (const region of regions) {
    if (region.ok) out.push(...region.ok);
    else if (region.conflict) {
      conflicts += 1;
      out.push(`<<<<<<< ${labels.mine}`, ...region.conflict.a, '=======', ...region.conflict.b, `>>>>>>> ${labels.theirs}`);
    }
  }
  return { text: out.join('\n'), conflicts };
}
