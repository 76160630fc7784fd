/** The shared kit's words (ui-kit: loading, errors, paging, confirmations), keys `kit.*`. */
export default {
  'kit.loading': 'Loading {what}…',
  'kit.empty': 'Nothing here.',
  'kit.requestId': '(request {id})',
  'kit.noJson': 'the server answered HTTP {status} without JSON',
  'kit.pages': 'Pages',
  'kit.previousPage': 'Previous page',
  'kit.page': 'Page {n}',
  'kit.nextPage': 'Next page',
  'kit.cancel': 'Cancel',
  'kit.detail': 'Detail',
  'kit.show': 'Show',
  'kit.hide': 'Hide',
  'kit.search': 'Search',
  'kit.chartLabel': '{title} (chart; the same figures are in the table below)',
} as const satisfies Record<`kit.${string}`, string>;
