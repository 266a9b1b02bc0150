import { defineCollection, reference } from 'astro:content';
import { glob } from 'astro/loaders';
import { z } from 'astro/zod';
import { chapterSchema, questionSchema } from './lib/content-schemas';

// Chapters and question cards live in content/, outside src/, so the book reads as a book.
// RANKS_CONTENT_DIR lets the schema test point the build at a fixture with a broken chapter.
const contentDir = process.env.RANKS_CONTENT_DIR ?? './content';
const chapters = defineCollection({
  loader: glob({ pattern: '*.mdx', base: `${contentDir}/chapters` }),
  schema: chapterSchema,
});

const questions = defineCollection({
  loader: glob({ pattern: '*.{md,mdx}', base: `${contentDir}/questions` }),
  schema: questionSchema.extend({
    chapter: reference('chapters'),
    followUps: z.array(reference('questions')).default([]),
  }),
});

export const collections = { chapters, questions };
