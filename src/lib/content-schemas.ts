import { z } from 'astro/zod';

/** Frontmatter of a chapter in content/chapters/NN-slug.mdx. */
export const chapterSchema = z.object({
  title: z.string().min(3),
  order: z.number().int().positive(),
  summary: z.string().min(20),
  objectives: z.array(z.string().min(3)).min(1),
  prerequisites: z.array(z.string()).default([]),
});

const coverSchema = z.object({
  context: z.array(z.string()).min(1),
  mustMention: z.array(z.string()).min(1),
  depth: z.array(z.string()).default([]),
  avoid: z.array(z.string()).default([]),
});

const quantitySchema = z.object({
  kind: z.literal('numeric'),
  prompt: z.string(),
  /** The correct value expressed in `unit`. */
  value: z.number(),
  /** A unit the grader knows ("B", "GB", "GiB", "s", "ms", "GB/s", "" for a pure number). */
  unit: z.string(),
  /** Relative tolerance, e.g. 0.02 for 2 %. */
  tolerance: z.number().positive().max(0.5).default(0.02),
  explanation: z.string(),
  /** Common wrong answers (in `unit`) and the misconception behind each, named before generic hints. */
  mistakes: z.array(z.object({ value: z.number(), why: z.string().min(10) })).default([]),
});

const choiceSchema = z.object({
  kind: z.enum(['single', 'multiple']),
  prompt: z.string(),
  options: z
    .array(z.object({ text: z.string(), correct: z.boolean(), explanation: z.string().min(3) }))
    .min(2),
});

const codeSchema = z.object({
  kind: z.literal('code'),
  prompt: z.string(),
  world: z.number().int().min(1).max(16).default(4),
  /** Paths relative to content/questions/exercises/. */
  starter: z.string(),
  solution: z.string(),
  checks: z.string(),
});

export const exerciseSchema = z.discriminatedUnion('kind', [
  quantitySchema,
  choiceSchema,
  codeSchema,
]);

/** Frontmatter of an interview question card; the body is the model answer. */
export const questionSchema = z.object({
  question: z.string().min(10),
  category: z.enum([
    'concepts',
    'collectives',
    'training',
    'ddp',
    'memory',
    'fsdp',
    'sizing',
    'systems',
  ]),
  difficulty: z.number().int().min(1).max(5),
  tags: z.array(z.string()).min(1),
  cover: coverSchema,
  exercises: z.array(exerciseSchema).default([]),
});

export type ChapterFrontmatter = z.infer<typeof chapterSchema>;
export type QuestionFrontmatter = z.infer<typeof questionSchema>;
