; Go definitions: a method is named by its receiver's type (@receiver), pointer or not (grammar.py).
(function_declaration name: (identifier) @name) @definition.function
(method_declaration
  receiver: (parameter_list
    (parameter_declaration
      type: [(type_identifier) @receiver
             (pointer_type (type_identifier) @receiver)
             (generic_type type: (type_identifier) @receiver)
             (pointer_type (generic_type type: (type_identifier) @receiver))]))
  name: (field_identifier) @name) @definition.method
(type_spec name: (type_identifier) @name type: (struct_type)) @definition.struct
(type_spec name: (type_identifier) @name type: (interface_type)) @definition.interface
(type_spec name: (type_identifier) @name type: (_) @type
  (#not-match? @type "^(struct|interface)[ \t\n{]")) @definition.type
(type_alias name: (type_identifier) @name) @definition.type
(interface_type (method_elem name: (field_identifier) @name) @declaration.method)
