import { writeDocx } from '../../support/docx-writer.js';
import { writePdf, type PdfTextLine } from '../../support/pdf-writer.js';

/**
 * A two-page staff benefits guide as an organisation would publish it: a title,
 * numbered section headings, paragraphs, a captioned two-column table with a
 * bold header row, a sub-section on page 2 and page numbers in the footer.
 */
export const GUIDE_PAGES: PdfTextLine[][] = [
  [
    { x: 72, y: 780, size: 20, bold: true, text: 'Staff Benefits Guide' },
    { x: 72, y: 740, size: 14, bold: true, text: '1. Leave' },
    { x: 72, y: 716, size: 11, text: 'Full-time staff receive 18 days of annual leave each year. Up to 5 unused days' },
    { x: 72, y: 702, size: 11, text: 'may be carried forward into the next year.' },
    { x: 72, y: 666, size: 14, bold: true, text: '2. Medical benefits' },
    { x: 72, y: 642, size: 11, text: 'Outpatient treatment is reimbursed up to the limits in the table below.' },
    { x: 72, y: 612, size: 11, text: 'Table 1: Outpatient claim limits' },
    { x: 72, y: 592, size: 11, bold: true, text: 'Treatment' },
    { x: 300, y: 592, size: 11, bold: true, text: 'Claim limit' },
    { x: 72, y: 576, size: 11, text: 'General practitioner visit' },
    { x: 300, y: 576, size: 11, text: '$45 per visit' },
    { x: 72, y: 560, size: 11, text: 'Dental scaling and polishing' },
    { x: 300, y: 560, size: 11, text: '$120 per year' },
    { x: 72, y: 544, size: 11, text: 'Physiotherapy session' },
    { x: 300, y: 544, size: 11, text: '$80 per session' },
    { x: 72, y: 528, size: 11, text: 'Spectacle lenses' },
    { x: 300, y: 528, size: 11, text: '$150 every two years' },
    { x: 290, y: 40, size: 9, text: '1' },
  ],
  [
    { x: 72, y: 780, size: 14, bold: true, text: '3. Claims' },
    { x: 72, y: 756, size: 12, bold: true, text: '3.1 Submitting a claim' },
    { x: 72, y: 734, size: 11, text: 'Claims are submitted through the finance portal within 60 days of the visit.' },
    { x: 290, y: 40, size: 9, text: '2' },
  ],
];

export const guidePdf = (options: { userPassword?: string } = {}): Buffer => writePdf(GUIDE_PAGES, options);

/** A visitor policy as a Word document: headings, paragraphs and a two-column fee table. */
export const visitorPolicyDocx = (): Promise<Buffer> =>
  writeDocx([
    { heading: 1, text: 'Visitor Policy' },
    { paragraph: 'Visitors sign in at the lobby reception and wear a badge at all times.' },
    { heading: 2, text: 'Visitor fees' },
    { paragraph: 'The fees below are charged to the host department.' },
    {
      table: [
        ['Item', 'Fee'],
        ['Replacement visitor badge', '$20'],
        ['Overnight visitor parking', '$15 per night'],
        ['Meeting room booking', '$35 per hour'],
      ],
    },
  ]);
