; Rust definitions. An impl is a scope named by its type; a trait impl's also by its trait (@trait),
; which gives its methods the qualified path Trait.for.Type.method (grammar.py, docs/languages.md).
(function_item name: (identifier) @name) @definition.function
(function_signature_item name: (identifier) @name) @declaration.function
(struct_item name: (type_identifier) @name) @definition.struct
(enum_item name: (type_identifier) @name) @definition.enum
(union_item name: (type_identifier) @name) @definition.union
(trait_item name: (type_identifier) @name) @definition.trait
(type_item name: (type_identifier) @name) @definition.type
; A trait's associated type (type Item;), as a trait's required fn is a declaration.
(associated_type name: (type_identifier) @name) @declaration.type
(mod_item name: (identifier) @name body: (_)) @definition.module
(macro_definition name: (identifier) @name) @definition.macro
(impl_item trait: (_) @trait type: (_) @name) @scope
(impl_item !trait type: (_) @name) @scope
