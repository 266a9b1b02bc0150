/**
 * Wraps every table (Markdown or JSX) in a focusable, labelled scroll region, so a wide table can
 * be scrolled from the keyboard on a phone (axe: scrollable-region-focusable).
 */
export default function rehypeScrollableTables() {
  return (tree) => {
    let count = 0;
    const isTable = (n) =>
      (n.type === 'element' && n.tagName === 'table') ||
      (n.type === 'mdxJsxFlowElement' && n.name === 'table');
    const visit = (node) => {
      if (!node.children) return;
      node.children = node.children.map((child) => {
        visit(child);
        if (!isTable(child)) return child;
        count += 1;
        return {
          type: 'element',
          tagName: 'div',
          properties: {
            className: ['table-scroll'],
            tabIndex: 0,
            role: 'region',
            ariaLabel: `Table ${count} (scrolls sideways on narrow screens)`,
          },
          children: [child],
        };
      });
    };
    visit(tree);
  };
}
