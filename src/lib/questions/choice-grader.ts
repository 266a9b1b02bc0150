/** Grades a single- or multiple-choice answer: correct only when exactly the right options are chosen. */
export function gradeChoice(
  options: { correct: boolean }[],
  chosen: number[],
): { status: 'correct' | 'wrong' | 'invalid'; missed: number[]; wrong: number[] } {
  if (chosen.length === 0) return { status: 'invalid', missed: [], wrong: [] };
  const picked = new Set(chosen);
  const missed = options.flatMap((o, i) => (o.correct && !picked.has(i) ? [i] : []));
  const wrong = options.flatMap((o, i) => (!o.correct && picked.has(i) ? [i] : []));
  return { status: missed.length === 0 && wrong.length === 0 ? 'correct' : 'wrong', missed, wrong };
}
