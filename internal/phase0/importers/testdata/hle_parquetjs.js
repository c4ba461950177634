// Generates hle_parquetjs.parquet, a Parquet fixture from an independent
// writer: npm install @dsnp/parquetjs && node hle_parquetjs.js hle_parquetjs.parquet
// (not run by the tests; the file is committed).
const parquet = require('@dsnp/parquetjs');
(async () => {
  // Synthetic HLE-like rows (invented content, real column names), written by
  // an independent Parquet implementation: legacy UTF8 converted types,
  // optional columns, a repeated (2-level legacy list) column, a nested
  // group, dictionary-less PLAIN pages, in a column order unlike HLE's.
  const schema = new parquet.ParquetSchema({
    rationale: { type: 'UTF8', optional: true },
    answer_type: { type: 'UTF8' },
    keywords: { type: 'UTF8', repeated: true },
    image_preview: { optional: true, fields: { bytes: { type: 'BYTE_ARRAY', optional: true }, path: { type: 'UTF8', optional: true } } },
    question: { type: 'UTF8', compression: 'GZIP' },
    id: { type: 'UTF8' },
    author_score: { type: 'INT64', optional: true },
    answer: { type: 'UTF8', optional: true },
    category: { type: 'UTF8', optional: true },
    image: { type: 'UTF8', optional: true },
    raw_subject: { type: 'UTF8', optional: true },
  });
  const w = await parquet.ParquetWriter.openFile(schema, process.argv[2], { rowGroupSize: 2 });
  const rows = [
    { id: 'js-000', question: 'Synthetic: what is 3 plus 4?', image: '', answer: '7', answer_type: 'exactMatch', category: 'Math', raw_subject: 'Arithmetic', rationale: '3+4=7', keywords: ['add', 'small'], author_score: 5 },
    { id: 'js-001', question: 'Synthetic: which letter?\nA. one\nB. two', answer: 'B', answer_type: 'multipleChoice', category: 'Other', keywords: [] },
    { id: 'js-002', question: 'Synthetic: describe the image.', image: 'data:image/png;base64,AAAA', answer: 'dots', answer_type: 'exactMatch', category: 'Other', image_preview: { path: 'p.png' }, keywords: ['img'] },
    { id: 'js-003', question: 'Synthetic: name the color of a clear daytime sky.', image: '', answer: 'blue', answer_type: 'exactMatch', category: 'Physics', rationale: 'Rayleigh', keywords: ['sky', 'light', 'color'] },
    { id: 'js-004', question: 'Synthetic: pick one.\nA. yes\nB. no', image: '', answer: 'A', answer_type: 'multipleChoice', category: 'Math' },
  ];
  for (const r of rows) await w.appendRow(r);
  await w.close();
})();
