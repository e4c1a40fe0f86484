import type { PackBlock, PackDocument } from './pack-model';

function blockText(block: PackBlock): string {
  switch (block.kind) {
    case 'heading':
      return `\n${block.text.toUpperCase()}`;
    case 'para':
    case 'mono':
      return block.text;
    case 'field':
      return `${block.label}: ${block.value}`;
    case 'list':
      return block.items.map((item) => `- ${item}`).join('\n');
  }
}

/** The pack as plain text to copy into a form, an e-mail or a chat with the bank. */
export function packToText(doc: PackDocument): string {
  const rule = '='.repeat(60);
  return doc.pages
    .map((page) => [rule, page.title, page.subtitle, rule, ...page.blocks.map(blockText)].join('\n'))
    .join('\n\n')
    .concat('\n');
}
