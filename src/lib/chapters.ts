import { getCollection, type CollectionEntry } from 'astro:content';

export type Chapter = CollectionEntry<'chapters'>;

/** "03-data-parallel-training" → "data-parallel-training": the number orders files, not URLs. */
export function chapterSlug(id: string): string {
  return id.replace(/^\d+-/, '');
}

export function chapterHref(id: string): string {
  return `/chapters/${chapterSlug(id)}/`;
}

export async function chaptersInOrder(): Promise<Chapter[]> {
  const all = await getCollection('chapters');
  return all.sort((a, b) => a.data.order - b.data.order);
}
