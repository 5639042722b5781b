; C++ definitions. Names through declarators and qualified names (Class::method) are read in
; Python (cfamily.py); namespaces and classes are scopes by being definitions.
(function_definition) @definition.function
(declaration) @declaration.function
(field_declaration) @declaration.method
(class_specifier name: (_) @name body: (_)) @definition.class
(struct_specifier name: (_) @name body: (_)) @definition.struct
(union_specifier name: (_) @name body: (_)) @definition.union
(enum_specifier name: (_) @name body: (_)) @definition.enum
(namespace_definition name: (_) @name) @definition.namespace
(alias_declaration name: (type_identifier) @name) @definition.type
(type_definition declarator: (type_identifier) @name) @definition.type
(preproc_function_def name: (identifier) @name) @definition.macro
