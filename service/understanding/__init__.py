"""Understanding free text and logs (index + engine layers): the stages `matcher.understand` runs in order.

normalize (`normalize`) -> analyse (`analysis`, with each language's `profiles`) -> spot concepts (`lexicon`)
-> read log (`logs` with its signal table `log_rules`, `log_bars`, `log_figures`, `log_text`; `prose`)
-> extract stated context (`extract`, `prose`) -> build features (`features`) -> gate (`gate`) -> rank (`rank`)
-> outcome (`outcome`). Index tables: `matcher.build_matcher`, `tables`; memo tables owned by the runtime:
`caches`; ids checked against the knowledge at start-up: `ids`.
"""
