// The query language's help (docs/API.md "Search", "Query language"): each operator with a short
// Hebrew explanation and an example. Operators and examples are code, left to right. Open and in
// full before anything is searched; folded below the results once there are some.

import { heSearchPage } from '../../i18n/searchPage';

const t = heSearchPage.help;

function HelpTable() {
  return (
    <>
      <p className="search-help__intro">{t.intro}</p>
      <table className="search-help__table">
        <thead>
          <tr>
            <th scope="col">{t.operator}</th>
            <th scope="col">{t.meaning}</th>
            <th scope="col">{t.example}</th>
          </tr>
        </thead>
        <tbody>
          {t.items.map((item) => (
            <tr key={item.ops.join(' ')} data-testid="search-help-item">
              <td>
                <span className="search-help__ops">
                  {item.ops.map((op) => (
                    <code key={op} dir="ltr">
                      {op}
                    </code>
                  ))}
                </span>
              </td>
              <td className="search-help__text">{item.text}</td>
              <td className="search-help__example">
                <code dir="ltr">{item.example}</code>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="search-help__note">{t.hebrew}</p>
    </>
  );
}

export function OperatorHelp({ prominent }: { prominent: boolean }) {
  if (prominent) {
    return (
      <section className="search-help search-help--prominent panel" aria-labelledby="search-help-title" data-testid="search-help">
        <h2 className="search-help__title" id="search-help-title">
          {t.title}
        </h2>
        <HelpTable />
      </section>
    );
  }
  return (
    <details className="search-help panel" data-testid="search-help">
      <summary className="search-help__summary">{t.show}</summary>
      <HelpTable />
    </details>
  );
}
